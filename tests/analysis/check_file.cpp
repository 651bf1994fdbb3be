// shmemsim_check_file json|perfetto|svg FILE: exits 0 if FILE is valid JSON / a Chrome trace-event
// JSON object with a non-empty traceEvents array / well-formed SVG (XML with an <svg> root), else prints one line saying what is wrong and exits 1. For program tests that check
// the files a real run wrote (tests/programs/trace_checks).
#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <string>

int main(int argc, char** argv)
{
  if (argc != 3) {
    std::fprintf(stderr, "usage: shmemsim_check_file json|perfetto|svg FILE\n");
    return 2;
  }
  const std::string kind = argv[1], path = argv[2];
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "%s: cannot open\n", path.c_str());
    return 1;
  }
  try {
    if (kind == "json" || kind == "perfetto") {
      const nlohmann::json j = nlohmann::json::parse(in);
      if (kind == "perfetto" &&
          (!j.is_object() || !j.contains("traceEvents") || !j["traceEvents"].is_array() || j["traceEvents"].empty())) {
        std::fprintf(stderr, "%s: not a trace-event JSON object with events\n", path.c_str());
        return 1;
      }
    } else if (kind == "svg") {
      boost::property_tree::ptree tree;
      boost::property_tree::read_xml(in, tree);
      if (tree.get_child_optional("svg") == boost::none) {
        std::fprintf(stderr, "%s: no <svg> root element\n", path.c_str());
        return 1;
      }
    } else {
      std::fprintf(stderr, "unknown kind '%s' (json, perfetto or svg)\n", kind.c_str());
      return 2;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: invalid %s: %s\n", path.c_str(), kind.c_str(), e.what());
    return 1;
  }
  return 0;
}
