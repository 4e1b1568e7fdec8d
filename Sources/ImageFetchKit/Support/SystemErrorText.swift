import FoundationEssentials

/// A readable cause for a failed file operation. FoundationEssentials' errors describe themselves
/// as their raw values (`CocoaError(code: …, userInfo: […])`); what a user needs is the system's
/// own sentence, e.g. "No such file or directory".
package enum SystemErrorText {
    package static func describe(_ error: any Error) -> String {
        if let posix = error as? POSIXError { return errnoDescription(posix.code.rawValue) }
        if let cocoa = error as? CocoaError {
            if let underlying = cocoa.userInfo["NSUnderlyingError"] as? any Error { return describe(underlying) }
            return "\(cocoa.code)"
        }
        return String(describing: error)
    }
}
