/// Punycode's encoder (RFC 3492 §6.3), for the Unicode rules of the Public Suffix List.
enum Punycode {
    static let base = 36
    static let tMin = 1
    static let tMax = 26
    static let skew = 38
    static let damp = 700
    static let initialBias = 72
    static let initialN = 128

    static func encode(_ scalars: Substring.UnicodeScalarView) -> String {
        let input = scalars.map { Int($0.value) }
        var output = input.filter { $0 < 0x80 }.map { Character(Unicode.Scalar(UInt8($0))) }
        let basicCount = output.count
        if basicCount > 0 { output.append("-") }
        var (n, delta, bias, handled) = (initialN, 0, initialBias, basicCount)
        while handled < input.count {
            let next = input.filter { $0 >= n }.min() ?? n
            delta += (next - n) * (handled + 1)
            n = next
            for code in input {
                if code < n { delta += 1 }
                guard code == n else { continue }
                var q = delta
                var k = base
                while true {
                    let t = k <= bias ? tMin : k >= bias + tMax ? tMax : k - bias
                    if q < t { break }
                    output.append(digit(t + (q - t) % (base - t)))
                    q = (q - t) / (base - t)
                    k += base
                }
                output.append(digit(q))
                bias = adapt(delta, handled + 1, first: handled == basicCount)
                delta = 0
                handled += 1
            }
            delta += 1
            n += 1
        }
        return String(output)
    }

    static func digit(_ value: Int) -> Character {
        Character(Unicode.Scalar(UInt8(value < 26 ? value + 97 : value + 22)))
    }

    static func adapt(_ delta: Int, _ count: Int, first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / count
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }
}
