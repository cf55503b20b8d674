/// What one site folder serves.
public final class SiteContent: Sendable {
    public let name: String
    public let apple: PreparedFile?
    public let android: PreparedFile?

    init(name: String, apple: PreparedFile?, android: PreparedFile?) {
        self.name = name
        self.apple = apple
        self.android = android
    }
}
