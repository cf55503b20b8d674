import ArgumentParser
struct MatchCommand: ParsableCommand {}
