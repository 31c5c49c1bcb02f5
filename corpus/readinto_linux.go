package corpus

import (
	"syscall"
	"unsafe"
)

// readInto appends the file at path (NUL-terminated) to buf and returns it. On Linux it
// opens, reads and closes with bare system calls: an os.File would add a
// stat, a poller registration and an allocation with a finalizer, which
// for the thousands of small files CheckPage reads in a long run cost more than the
// reading.
func readInto(path, buf []byte) ([]byte, error) {
	dirfd := _AT_FDCWD
	var fd uintptr
	for {
		r, _, errno := syscall.Syscall6(syscall.SYS_OPENAT, uintptr(dirfd), uintptr(unsafe.Pointer(unsafe.SliceData(path))),
			uintptr(syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK), 0, 0, 0) // a FIFO put in a store reads as empty, never blocks
		if errno == syscall.EINTR {
			continue
		}
		if errno != 0 {
			return buf, errno
		}
		fd = r
		break
	}
	defer syscall.Close(int(fd))
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(int(fd), buf[len(buf):cap(buf)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return buf, err
		}
		if n == 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
}

const _AT_FDCWD = -100 // fcntl.h
