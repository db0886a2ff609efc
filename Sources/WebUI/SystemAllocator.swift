#if canImport(Glibc)
import Glibc
#endif

/// The C allocator, as far as a server needs to ask it anything.
enum SystemAllocator {
    #if canImport(Glibc)
    /// glibc's `int malloc_trim(size_t pad)`, looked up once (its header is not in Swift's Glibc
    /// module); `nil` on a C library without it (musl).
    // SAFETY: the symbol is glibc's function of exactly this C signature, so the cast is to
    // its own type.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        guard let symbol = dlsym(nil, "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()
    #endif

    /// Returns freed memory to the system (glibc's `malloc_trim`: every arena's free pages);
    /// nothing elsewhere, where the allocator returns memory by itself.
    static func trim() {
        #if canImport(Glibc)
        _ = mallocTrim?(0)
        #endif
    }
}
