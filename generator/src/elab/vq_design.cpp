#include "elab/vq_design.hpp"

namespace npugen::elab {

golden::VqParams vq_params(const config::Config& c) {
  const auto& v = c.vq;
  golden::VqParams p;
  p.rows = static_cast<unsigned>(v.rows);
  p.row_weights = static_cast<unsigned>(v.row_weights);
  p.copies = static_cast<unsigned>(v.copies);
  p.min_vector_length = static_cast<unsigned>(v.min_vector_length);
  golden::WeightFormat::parse(v.weight_format, p.weight);  // validated by the config
  return p;
}

VqDesign elaborate_vq(const config::Config& c) {
  VqDesign v;
  v.enabled = c.vq.enabled;
  v.params = vq_params(c);
  v.ram = c.vq.memory == "ram";
  v.weight_width = static_cast<int>(v.params.weight.width);
  v.row_width = static_cast<int>(v.params.row_weights) * v.weight_width;
  v.beat_width = static_cast<int>(v.params.copies) * v.row_width;
  v.offset_bits = static_cast<int>(v.params.row_log2());
  const std::string& p = c.design.module_prefix;
  v.dequant_module = p + "_vq_dequant";
  v.codebook_module = p + "_vq_codebook";
  return v;
}

}  // namespace npugen::elab
