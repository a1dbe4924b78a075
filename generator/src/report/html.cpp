#include "report/html.hpp"

#include <fmt/format.h>

#include "report/svg.hpp"
#include "util/output_tree.hpp"
#include "version.hpp"

namespace npugen::report {

std::string html_page(const std::string& title, const std::string& body) {
  return fmt::format(
      R"(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="generator" content="npugen {}">
<title>{}</title>
<style>
body {{ font-family: sans-serif; font-size: 14px; margin: 1.5em 2em; color: #222; }}
h1 {{ font-size: 20px; }} h2 {{ font-size: 16px; margin-top: 1.6em; }}
table {{ border-collapse: collapse; margin: 0.5em 0; }}
th, td {{ border: 1px solid #ccc; padding: 3px 7px; text-align: left; vertical-align: top; }}
th {{ background: #f2f2f2; }} td.num {{ text-align: right; }}
code {{ font-size: 12px; background: #f6f6f6; padding: 1px 3px; }}
.pass {{ background: #cdeccd; }} .fail, .crash, .error {{ background: #f5c2c2; }}
.timeout {{ background: #f7dfae; }}
a.job {{ display: inline-block; min-width: 1.6em; margin: 1px; padding: 0 3px;
  text-align: center; color: #222; text-decoration: none; border: 1px solid #999; }}
.plots svg {{ display: block; margin: 0.4em 0 1em 0; max-width: 100%; height: auto; }}
</style>
</head>
<body>
<h1>{}</h1>
{}
<p><small>Written by npugen {}.</small></p>
</body>
</html>
)",
      kVersion, xml_escape(title), xml_escape(title), body, kVersion);
}

void write_report_page(const std::filesystem::path& dir, const std::string& html) {
  util::write_tree_atomically(dir, {{kReportMarker, "npugen report\n"}, {"index.html", html}},
                              kReportMarker, {});
}

}  // namespace npugen::report
