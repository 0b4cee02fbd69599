import ArgumentParser
import ExpenseCore

extension RolloverMode: ExpressibleByArgument {}
