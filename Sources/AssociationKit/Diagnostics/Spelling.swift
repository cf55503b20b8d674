/// "Did you mean …?" suggestions for misspelt keys (`casesensitive` → `caseSensitive`).
public enum Spelling {
    /// The known word closest to `word` by edit distance, ignoring case, if it is close enough
    /// to be a likely typo (at most a third of the word, and at least one edit).
    public static func closest(to word: String, among known: [String]) -> String? {
        let target = Array(word.lowercased().unicodeScalars)
        var best: (word: String, distance: Int)?
        for candidate in known {
            let distance = editDistance(target, Array(candidate.lowercased().unicodeScalars))
            if distance < best?.distance ?? Int.max { best = (candidate, distance) }
        }
        guard let best else { return nil }
        let limit = max(1, min(3, target.count / 3))
        return best.distance <= limit ? best.word : nil
    }

    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
