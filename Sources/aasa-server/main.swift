// The full command line where the server builds (Linux); elsewhere the portable file
// commands alone (Package.swift builds AASACommands on Linux only).
#if canImport(AASACommands)
    import AASACommands

    AASACommand.run()
#else
    import AASAFileCommands

    PortableCommand.run()
#endif
