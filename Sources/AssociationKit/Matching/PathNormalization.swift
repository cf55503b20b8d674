/// How Apple lines up a path pattern with a URL path (observed with Apple's swcutil):
/// the pattern's leading slash is optional (`abc` and `//abc` match `/abc`); a trailing run
/// of slashes is insignificant on both sides (`/buy` ~ `/buy/` ~ `/buy//`); a pattern ending
/// in `/*` also matches the path without that segment (`/buy/*` matches `/buy`); and no
/// slash is ever added to the URL (`/id/????` does not match `/id/481`).
///
/// Both sides are brought to one form: the pattern starts with exactly one `/`, and unless it
/// ends with `*` it ends with exactly one `/`; the path ends with exactly one `/` (the empty
/// path is `/`). A trailing `*` then absorbs the path's final slash or matches nothing.
public enum PathNormalization {
    public static func pattern(_ text: String) -> String {
        var scalars = Substring(text).unicodeScalars
        while scalars.first == "/" { scalars.removeFirst() }
        var result = "/" + String(scalars)
        if !result.hasSuffix("*") {
            while result.hasSuffix("/") { result.removeLast() }
            result += "/"
        }
        return result
    }

    public static func path<C: BidirectionalCollection>(_ scalars: C) -> [UInt32] where C.Element == UInt32 {
        var end = scalars.endIndex
        while end > scalars.startIndex, scalars[scalars.index(before: end)] == UInt32(UInt8(ascii: "/")) {
            end = scalars.index(before: end)
        }
        var result = Array(scalars[scalars.startIndex..<end])
        result.append(UInt32(UInt8(ascii: "/")))
        return result
    }
}
