/// One name in a folder and its `d_type` (DT_DIR, DT_REG, DT_LNK, …; DT_UNKNOWN on file
/// systems that do not say, readdir(3)).
package struct FolderEntry: Sendable {
    package let name: String
    package let type: UInt8
}
