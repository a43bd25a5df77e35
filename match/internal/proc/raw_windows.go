package proc

import "syscall"

// rawRead and rawWrite serve the waker's reads (waitNow) and tryWrite on
// Unix. Windows has no waker (newWaker returns nil) and its tryWrite
// writes nothing, so they are never called there; were they, the caller
// would get an error, never data that was not read or written.
func rawRead(uintptr, []byte) (int, syscall.Errno) { return 0, syscall.EWINDOWS }

func rawWrite(uintptr, []byte) (int, syscall.Errno) { return 0, syscall.EWINDOWS }
