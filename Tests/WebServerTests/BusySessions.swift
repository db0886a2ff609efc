// Issue 41, T-BEYOND4: the suites whose sessions hold a thread.
#if WebServer
import Testing

/// The suites whose sessions keep a thread of Dispatch's pool (a view model busy on its turn,
/// some held until the test lets go), one suite at a time. The pool has as many threads as the
/// machine has cores: on 2 cores, two suites holding one each would leave none for the tests'
/// own tasks, the ones that let go, and each would wait out its hold's cap (30 s) instead.
@Suite(.serialized) struct BusySessions {}
#endif
