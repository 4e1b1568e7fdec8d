#ifndef IMGFETCH_CTURBOJPEG_SHIM_H
#define IMGFETCH_CTURBOJPEG_SHIM_H
// TurboJPEG returns error codes instead of longjmp-ing, so Swift can call it directly.
#include <turbojpeg.h>
#endif
