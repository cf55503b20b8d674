/// The outcome of a non-blocking call: done (with a value), or it would block (EAGAIN).
package enum IOResult<Value> {
    case processed(Value)
    case wouldBlock
}
