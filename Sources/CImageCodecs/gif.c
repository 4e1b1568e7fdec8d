// giflib: GIF stills, and animations record by record.
#include "imgfetch_gif.h"
#include "codec_group.h"

// giflib, as (member of gif_api, symbol).
#define GIF_SYMBOLS(X)                                  \
    X(open, DGifOpen)                                   \
    X(slurp, DGifSlurp)                                 \
    X(close_file, DGifCloseFile)                        \
    X(saved_extension_to_gcb, DGifSavedExtensionToGCB)  \
    X(error_string, GifErrorString)                     \
    X(get_record_type, DGifGetRecordType)               \
    X(get_image_desc, DGifGetImageDesc)                 \
    X(get_line, DGifGetLine)                            \
    X(get_extension, DGifGetExtension)                  \
    X(get_extension_next, DGifGetExtensionNext)         \
    X(get_code, DGifGetCode)                            \
    X(get_code_next, DGifGetCodeNext)
LIBRARY_GROUP(gif, GIF_SYMBOLS, IMGFETCH_GIF_LIBRARY, "libgif7")

GifFileType *imgfetch_DGifOpen(void *userData, InputFunc readFunc, int *error) { return gif_api.open(userData, readFunc, error); }
int imgfetch_DGifSlurp(GifFileType *file) { return gif_api.slurp(file); }
int imgfetch_DGifCloseFile(GifFileType *file, int *error) { return gif_api.close_file(file, error); }
int imgfetch_DGifSavedExtensionToGCB(GifFileType *file, int imageIndex, GraphicsControlBlock *control) {
    return gif_api.saved_extension_to_gcb(file, imageIndex, control);
}
const char *imgfetch_GifErrorString(int error) { return gif_api.error_string(error); }
int imgfetch_DGifGetRecordType(GifFileType *file, GifRecordType *type) { return gif_api.get_record_type(file, type); }
int imgfetch_DGifGetImageDesc(GifFileType *file) { return gif_api.get_image_desc(file); }
int imgfetch_DGifGetLine(GifFileType *file, GifPixelType *line, int length) { return gif_api.get_line(file, line, length); }
int imgfetch_DGifGetExtension(GifFileType *file, int *code, GifByteType **extension) {
    return gif_api.get_extension(file, code, extension);
}
int imgfetch_DGifGetExtensionNext(GifFileType *file, GifByteType **extension) { return gif_api.get_extension_next(file, extension); }
int imgfetch_DGifGetCode(GifFileType *file, int *codeSize, GifByteType **codeBlock) {
    return gif_api.get_code(file, codeSize, codeBlock);
}
int imgfetch_DGifGetCodeNext(GifFileType *file, GifByteType **codeBlock) { return gif_api.get_code_next(file, codeBlock); }
