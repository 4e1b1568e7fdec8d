#ifndef IMGFETCH_GIF_H
#define IMGFETCH_GIF_H
// GIF: giflib (gif.c).
#include "CImageCodecs.h"
#include <gif_lib.h>

const char *imgfetch_gif_load(void);
#define IMGFETCH_GIF_LIBRARY "libgif.so.7"

// giflib reports errors through an int out-parameter.
GifFileType *imgfetch_DGifOpen(void *userData, InputFunc readFunc, int *error);
int imgfetch_DGifSlurp(GifFileType *gif);
int imgfetch_DGifCloseFile(GifFileType *gif, int *error);
int imgfetch_DGifSavedExtensionToGCB(GifFileType *gif, int imageIndex, GraphicsControlBlock *control);
const char *imgfetch_GifErrorString(int error);
// giflib's record-by-record reading, for animations: one frame's rows at a time, never the
// whole file's frames as DGifSlurp keeps them.
int imgfetch_DGifGetRecordType(GifFileType *gif, GifRecordType *type);
int imgfetch_DGifGetImageDesc(GifFileType *gif);
int imgfetch_DGifGetLine(GifFileType *gif, GifPixelType *line, int length);
int imgfetch_DGifGetExtension(GifFileType *gif, int *code, GifByteType **extension);
int imgfetch_DGifGetExtensionNext(GifFileType *gif, GifByteType **extension);
int imgfetch_DGifGetCode(GifFileType *gif, int *codeSize, GifByteType **codeBlock);
int imgfetch_DGifGetCodeNext(GifFileType *gif, GifByteType **codeBlock);

#endif
