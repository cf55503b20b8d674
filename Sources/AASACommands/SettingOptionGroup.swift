import AASAServer

/// A group of settings as a type, for `SettingOptions`: the parser takes an option group's
/// options from its type.
protocol SettingOptionGroup {
    static var group: SettingGroup { get }
}

enum SiteOptions: SettingOptionGroup { static let group = SettingGroup.sites }
enum ListenerOptions: SettingOptionGroup { static let group = SettingGroup.listeners }
enum AdminOptions: SettingOptionGroup { static let group = SettingGroup.admin }
enum LimitOptions: SettingOptionGroup { static let group = SettingGroup.limits }
enum LogOptions: SettingOptionGroup { static let group = SettingGroup.logging }
enum ACMEOptions: SettingOptionGroup { static let group = SettingGroup.acme }
enum StoreOptions: SettingOptionGroup { static let group = SettingGroup.store }
enum CDNWatchOptions: SettingOptionGroup { static let group = SettingGroup.cdnWatch }
enum GoogleWatchOptions: SettingOptionGroup { static let group = SettingGroup.googleWatch }
