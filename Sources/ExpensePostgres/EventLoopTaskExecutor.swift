import NIOCore

/// Runs a task's jobs on one NIO event loop, so that a synchronous caller can wait for an async
/// postgres-nio call (`copyFrom`, which has no future-based form) without any thread of Swift's
/// cooperative pool: the task starts and resumes on the connection's own event loop thread,
/// which is never the blocked caller (see `BlockingConnection`).
final class EventLoopTaskExecutor: TaskExecutor {
  let loop: any EventLoop

  init(_ loop: any EventLoop) { self.loop = loop }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }
}
