#include "analysis/SvgRender.hpp"

#include <cairo-pdf.h>
#include <cairo.h>
#include <librsvg/rsvg.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>

namespace shmemsim::analysis {

namespace {

std::string lower(std::string s)
{
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

struct GObjectUnref {
  void operator()(RsvgHandle* h) const { g_object_unref(h); }
};
struct SurfaceDestroy {
  void operator()(cairo_surface_t* s) const { cairo_surface_destroy(s); }
};
struct CairoDestroy {
  void operator()(cairo_t* c) const { cairo_destroy(c); }
};

/// The parsed drawing and its size in CSS pixels (the width and height of the <svg> element).
struct Parsed {
  std::unique_ptr<RsvgHandle, GObjectUnref> handle;
  double width = 0, height = 0;
};

Parsed parse(const std::string& path, const std::string& svg)
{
  GError* err = nullptr;
  Parsed p;
  p.handle.reset(rsvg_handle_new_from_data(reinterpret_cast<const guint8*>(svg.data()), svg.size(), &err));
  if (!p.handle) {
    const std::string why = err != nullptr ? err->message : "unknown error";
    if (err != nullptr)
      g_error_free(err);
    throw std::runtime_error(path + ": cannot render the drawing: " + why);
  }
  if (!rsvg_handle_get_intrinsic_size_in_pixels(p.handle.get(), &p.width, &p.height) || p.width <= 0 || p.height <= 0)
    throw std::runtime_error(path + ": cannot render the drawing: it has no size in pixels");
  return p;
}

/// Renders the drawing onto `cr`, scaled by `scale`.
void render(const std::string& path, const Parsed& p, cairo_t* cr, double scale)
{
  cairo_scale(cr, scale, scale);
  const RsvgRectangle viewport{0, 0, p.width, p.height};
  GError* err = nullptr;
  if (!rsvg_handle_render_document(p.handle.get(), cr, &viewport, &err)) {
    const std::string why = err != nullptr ? err->message : "unknown error";
    if (err != nullptr)
      g_error_free(err);
    throw std::runtime_error(path + ": cannot render the drawing: " + why);
  }
}

void check(const std::string& path, cairo_status_t status)
{
  if (status != CAIRO_STATUS_SUCCESS)
    throw std::runtime_error(path + ": cannot write: " + cairo_status_to_string(status));
}

void write_png(const std::string& path, const std::string& svg)
{
  const Parsed p     = parse(path, svg);
  const double scale = 2; // 192 dpi
  const int w = static_cast<int>(p.width * scale + 0.5), h = static_cast<int>(p.height * scale + 0.5);
  std::unique_ptr<cairo_surface_t, SurfaceDestroy> s(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h));
  check(path, cairo_surface_status(s.get()));
  {
    std::unique_ptr<cairo_t, CairoDestroy> cr(cairo_create(s.get()));
    render(path, p, cr.get(), scale);
    check(path, cairo_status(cr.get()));
  }
  check(path, cairo_surface_write_to_png(s.get(), path.c_str()));
}

void write_pdf(const std::string& path, const std::string& svg)
{
  const Parsed p     = parse(path, svg);
  const double pt_px = 72.0 / 96.0; // CSS pixels are 1/96 inch, PDF points 1/72
  std::unique_ptr<cairo_surface_t, SurfaceDestroy> s(
      cairo_pdf_surface_create(path.c_str(), p.width * pt_px, p.height * pt_px));
  check(path, cairo_surface_status(s.get()));
  {
    std::unique_ptr<cairo_t, CairoDestroy> cr(cairo_create(s.get()));
    render(path, p, cr.get(), pt_px);
    check(path, cairo_status(cr.get()));
  }
  cairo_surface_finish(s.get());
  check(path, cairo_surface_status(s.get()));
}

} // namespace

ImageFormat image_format(const std::string& path)
{
  const std::string ext = lower(std::filesystem::path(path).extension().string());
  if (ext == ".svg")
    return ImageFormat::Svg;
  if (ext == ".png")
    return ImageFormat::Png;
  if (ext == ".pdf")
    return ImageFormat::Pdf;
  throw std::invalid_argument(path + ": unknown extension " + (ext.empty() ? std::string("(none)") : "'" + ext + "'") +
                              " (expected .svg, .png or .pdf)");
}

void write_drawing(const std::string& path, const std::string& svg)
{
  switch (image_format(path)) {
    case ImageFormat::Svg: {
      std::ofstream f(path, std::ios::binary);
      f << svg;
      f.close();
      if (!f)
        throw std::runtime_error(path + ": cannot write: " + std::strerror(errno));
      return;
    }
    case ImageFormat::Png:
      write_png(path, svg);
      return;
    case ImageFormat::Pdf:
      write_pdf(path, svg);
      return;
  }
}

} // namespace shmemsim::analysis
