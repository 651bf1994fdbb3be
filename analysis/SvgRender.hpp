// Writing a drawing (an SVG document of the timing diagram, a plot or a figure) to a file in the
// format its name asks for: .svg as it is, .png and .pdf rendered from the SVG by librsvg over
// cairo (Debian's librsvg2-dev), so that the three formats show the same drawing.
#pragma once

#include <string>

namespace shmemsim::analysis {

/// The formats a drawing can be written in, from the file name's extension (case-insensitive).
enum class ImageFormat { Svg, Png, Pdf };

/// The format `path` names; throws std::invalid_argument ("FILE: unknown extension '.jpg'
/// (expected .svg, .png or .pdf)") for any other.
ImageFormat image_format(const std::string& path);

/// Writes `svg` to `path` in the format its extension names: the SVG text, a PNG at twice the
/// drawing's size in pixels (192 dpi: sharp on slides), or a PDF of the drawing's size (96 px to
/// the inch, vector). Throws std::invalid_argument for an unknown extension and
/// std::runtime_error naming the file when it cannot be rendered or written.
void write_drawing(const std::string& path, const std::string& svg);

} // namespace shmemsim::analysis
