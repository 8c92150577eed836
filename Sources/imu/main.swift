import IMUCommands

IMUCommand.main()
