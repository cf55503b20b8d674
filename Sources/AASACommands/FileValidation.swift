import AssociationKit
import Foundation

/// One file read and validated.
struct FileValidation {
    var path: String
    var kind: AssociationFileFinder.Found.Kind
    var diagnostics: [Diagnostic] = []
    var byteCount = 0
    var readError: String?
    var parsed = false

    init(file: AssociationFileFinder.Found) {
        path = file.path
        kind = file.kind
        guard let data = FileManager.default.contents(atPath: file.path) else {
            readError = FileManager.default.isReadableFile(atPath: file.path) ? "cannot read the file" : "permission denied or not a regular file"
            return
        }
        let bytes = [UInt8](data)
        byteCount = bytes.count
        switch kind {
        case .apple:
            let report = AssociationFileValidator.validate(bytes)
            diagnostics = report.diagnostics
            parsed = report.file != nil
        case .android:
            // Until the Digital Asset Links validator lands, assetlinks.json is held to strict
            // JSON and the same size limit.
            let document = JSONDocument.parse(bytes)
            diagnostics = document.diagnostics
            parsed = document.root != nil
        }
    }

    var isValid: Bool { readError == nil && parsed && !diagnostics.hasErrors }
}
