import Glibc

/// Runs `body` `iterations` times per sample and returns the median time of one iteration.
func medianTime(samples: Int = 7, iterations: Int, _ body: () -> Void) -> Duration {
    let clock = ContinuousClock()
    var times: [Duration] = []
    for _ in 0..<samples {
        let elapsed = clock.measure {
            for _ in 0..<iterations { body() }
        }
        times.append(elapsed / iterations)
    }
    return times.sorted()[samples / 2]
}

extension Duration {
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }

    var nanoseconds: Double { milliseconds * 1e6 }
}

func format(_ value: Double, _ digits: Int = 2) -> String {
    let scale = (0..<digits).reduce(1.0) { value, _ in value * 10 }
    let rounded = (value * scale).rounded() / scale
    return String(rounded)
}

/// Keeps results alive so the optimizer cannot drop the work.
nonisolated(unsafe) var sink = 0
