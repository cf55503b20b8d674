import AASACommands
AASACommand.run()
