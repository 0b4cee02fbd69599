import ExpenseService

/// The server reads the time through the service's one clock.
public typealias ServerClock = ServiceClock
