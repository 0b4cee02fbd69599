import ArgumentParser
import ExpenseCore

/// `--period month|quarter|year`: ArgumentParser lists the values in the help and refuses others.
extension BudgetPeriod: ExpressibleByArgument {}
