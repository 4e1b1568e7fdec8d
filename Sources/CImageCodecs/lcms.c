// Little CMS 2: embedded ICC profiles to sRGB, loaded at the first image that carries a profile.
#include "CImageCodecs.h"
#include "codec_group.h"

// lcms2, as (member of lcms_api, symbol).
#define LCMS_SYMBOLS(X)                              \
    X(open_profile_from_mem, cmsOpenProfileFromMem)  \
    X(close_profile, cmsCloseProfile)                \
    X(get_color_space, cmsGetColorSpace)             \
    X(create_srgb_profile, cmsCreate_sRGBProfile)    \
    X(create_transform, cmsCreateTransform)          \
    X(do_transform, cmsDoTransform)                  \
    X(delete_transform, cmsDeleteTransform)
LIBRARY_GROUP(lcms, LCMS_SYMBOLS, "liblcms2.so.2", "liblcms2-2")

cmsHPROFILE imgfetch_cmsOpenProfileFromMem(const void *memory, cmsUInt32Number size) {
    return lcms_api.open_profile_from_mem(memory, size);
}
cmsBool imgfetch_cmsCloseProfile(cmsHPROFILE profile) { return lcms_api.close_profile(profile); }
cmsColorSpaceSignature imgfetch_cmsGetColorSpace(cmsHPROFILE profile) { return lcms_api.get_color_space(profile); }
cmsHPROFILE imgfetch_cmsCreate_sRGBProfile(void) { return lcms_api.create_srgb_profile(); }
cmsHTRANSFORM imgfetch_cmsCreateTransform(cmsHPROFILE input, cmsUInt32Number input_format, cmsHPROFILE output,
                                          cmsUInt32Number output_format, cmsUInt32Number intent, cmsUInt32Number flags) {
    return lcms_api.create_transform(input, input_format, output, output_format, intent, flags);
}
void imgfetch_cmsDoTransform(cmsHTRANSFORM transform, const void *input, void *output, cmsUInt32Number pixels) {
    lcms_api.do_transform(transform, input, output, pixels);
}
void imgfetch_cmsDeleteTransform(cmsHTRANSFORM transform) { lcms_api.delete_transform(transform); }
