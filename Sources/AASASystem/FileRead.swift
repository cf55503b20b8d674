/// What reading one file gave: its bytes and the status of the descriptor they were read
/// from (fstat(2) after open(2), so the two describe the same file), or why nothing was read.
public enum FileRead: Sendable {
    /// A regular file of at most the limit: its status and bytes. More bytes than the status
    /// said may have been read (the file grew), never more than the limit.
    case regular(FileStatus, bytes: [UInt8])
    /// A regular file larger than the limit: not read.
    case tooLarge(FileStatus)
    /// A folder, FIFO, device or socket: opened without blocking, never read.
    case notRegular(FileStatus)
    /// A symbolic link that is not followed (leading outside the folder, absolute, or one of
    /// too many): why, in a sentence.
    case linkRefused(String)
    /// A regular file that changed while it was read, each of `FileStatus.changeAttempts`
    /// times (rewritten in place, not replaced by a rename): its last status; the bytes, maybe
    /// from two versions, are not kept.
    case changing(FileStatus)
    /// open(2), fstat(2) or read(2) failed: which call and errno; the status when fstat(2)
    /// succeeded.
    case failed(SystemError, FileStatus?)

    /// The status of the opened file, when it was opened.
    public var status: FileStatus? {
        switch self {
        case .regular(let status, _), .tooLarge(let status), .notRegular(let status), .changing(let status): status
        case .failed(_, let status): status
        case .linkRefused: nil
        }
    }
}

extension FileRead {
    /// Why a file that changed while it was read was not used, for a load's message.
    public static let changingReason =
        "it changed while it was read, \(FileStatus.changeAttempts) times (written in place); write the new "
        + "version to another file in the same folder and rename it over this one"
}

extension FileRead {
    /// Wipes the bytes of a `.regular` read (`Array.wipe`) once they are used, the read becoming
    /// `.changing` with the same status: the bytes may hold a private key, and this drops the
    /// read's own reference first, so the wipe is of the one buffer, not of a copy.
    package mutating func wipe() {
        guard case .regular(let status, var bytes) = self else { return }
        self = .changing(status)
        bytes.wipe()
    }
}
