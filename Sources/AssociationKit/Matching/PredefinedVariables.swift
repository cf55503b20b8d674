/// Apple's predefined substitution variables (docs/association-files.md §2, Substitution
/// variables). `region` and `lang` are Foundation's `Locale.isoRegionCodes` and
/// `Locale.isoLanguageCodes`: ISO codes, so `GB` is a region and `UK` is not, whatever
/// Apple's prose example says (observed with Apple's swcutil).
public enum PredefinedVariables {
    public static let names = ["alpha", "upper", "lower", "alnum", "digit", "xdigit", "region", "lang"]

    public static func values(of name: String) -> [String]? {
        switch name {
        case "alpha": upper + lower
        case "upper": upper
        case "lower": lower
        case "alnum": upper + lower + digits
        case "digit": digits
        case "xdigit": digits + Array("ABCDEFabcdef").map(String.init)
        case "region": ISOCodes.regions
        case "lang": ISOCodes.languages
        default: nil
        }
    }

    static let upper = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) }
    static let lower = (UInt8(ascii: "a")...UInt8(ascii: "z")).map { String(UnicodeScalar($0)) }
    static let digits = (UInt8(ascii: "0")...UInt8(ascii: "9")).map { String(UnicodeScalar($0)) }
}
