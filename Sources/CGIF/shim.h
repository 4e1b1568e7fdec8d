#ifndef IMGFETCH_CGIF_SHIM_H
#define IMGFETCH_CGIF_SHIM_H
// giflib's DGif* functions report errors through an int out-parameter.
#include <gif_lib.h>
#endif
