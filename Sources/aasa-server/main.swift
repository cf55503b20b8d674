import AASACommands

AASACommand.run()
