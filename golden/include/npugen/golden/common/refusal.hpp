// The refusal rules that blocks with register groups share, in words: a value outside its
// range, and a sliding window's (the address generator's layer, the planar engine's
// pooling task). Each block's refusal function (agu_refusal, planar_refusal) states its
// own rules with these.
#pragma once

#include <fmt/format.h>

#include <string>

namespace npugen::golden {

/// "<what> <v> is outside <lo> to <hi> (<key>)", or "" when v is inside; `key` names the
/// configuration key that sets the limit (none: nullptr).
inline std::string outside(const char* what, unsigned v, unsigned lo, unsigned hi,
                           const char* key = nullptr) {
  if (v >= lo && v <= hi) return "";
  return key == nullptr ? fmt::format("{} {} is outside {} to {}", what, v, lo, hi)
                        : fmt::format("{} {} is outside {} to {} ({})", what, v, lo, hi, key);
}

/// The configuration keys of a window's limits (`npugen schema`), for the messages.
struct WindowKeys {
  const char* kernel = nullptr;
  const char* stride = nullptr;
  const char* pad = nullptr;
};

/// Why a window is refused, or "": a kernel side outside 1 to max_kernel, a stride outside
/// 1 to max_stride, padding outside 0 to max_pad or not below the kernel, a kernel larger
/// than the padded input. `T` holds height, width, kernel_h, kernel_w, stride_y, stride_x,
/// pad_top, pad_bottom, pad_left and pad_right.
template <typename T>
std::string window_refusal(const T& t, unsigned max_kernel, unsigned max_stride, unsigned max_pad,
                           const WindowKeys& k = {}) {
  for (const std::string& why : {outside("kernel height", t.kernel_h, 1, max_kernel, k.kernel),
                                 outside("kernel width", t.kernel_w, 1, max_kernel, k.kernel),
                                 outside("vertical stride", t.stride_y, 1, max_stride, k.stride),
                                 outside("horizontal stride", t.stride_x, 1, max_stride, k.stride),
                                 outside("top padding", t.pad_top, 0, max_pad, k.pad),
                                 outside("bottom padding", t.pad_bottom, 0, max_pad, k.pad),
                                 outside("left padding", t.pad_left, 0, max_pad, k.pad),
                                 outside("right padding", t.pad_right, 0, max_pad, k.pad)}) {
    if (!why.empty()) return why;
  }
  if (t.pad_top >= t.kernel_h || t.pad_bottom >= t.kernel_h) {
    return fmt::format("vertical padding {}/{} is not below the kernel height {}", t.pad_top,
                       t.pad_bottom, t.kernel_h);
  }
  if (t.pad_left >= t.kernel_w || t.pad_right >= t.kernel_w) {
    return fmt::format("horizontal padding {}/{} is not below the kernel width {}", t.pad_left,
                       t.pad_right, t.kernel_w);
  }
  if (t.kernel_h > t.height + t.pad_top + t.pad_bottom) {
    return fmt::format("kernel height {} exceeds the padded input height {}", t.kernel_h,
                       t.height + t.pad_top + t.pad_bottom);
  }
  if (t.kernel_w > t.width + t.pad_left + t.pad_right) {
    return fmt::format("kernel width {} exceeds the padded input width {}", t.kernel_w,
                       t.width + t.pad_left + t.pad_right);
  }
  return "";
}

}  // namespace npugen::golden
