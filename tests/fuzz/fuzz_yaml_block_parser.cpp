// SPDX-License-Identifier: Apache-2.0
// Differential: whenever the block YAML parser accepts a text, yaml-cpp must read the same text
// without an error and send exactly the same events with the same marks. Text the block parser
// refuses goes to yaml-cpp in the product, so only what it accepts is compared.
#include "core/yaml/yaml_block_parser.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

namespace {

/// Every event with its mark, as one text.
class EventLog : public YAML::EventHandler {
public:
    std::string text;

    void OnDocumentStart(const YAML::Mark &mark) override { add("document", mark); }
    void OnDocumentEnd() override { text += "end document\n"; }
    void OnNull(const YAML::Mark &mark, YAML::anchor_t anchor) override { add("null " + std::to_string(anchor), mark); }
    void OnAlias(const YAML::Mark &mark, YAML::anchor_t anchor) override
    {
        add("alias " + std::to_string(anchor), mark);
    }
    void OnScalar(
        const YAML::Mark &mark, const std::string &tag, YAML::anchor_t anchor, const std::string &value) override
    {
        add("scalar " + tag + " " + std::to_string(anchor) + " [" + value + "]", mark);
    }
    void OnSequenceStart(
        const YAML::Mark &mark, const std::string &tag, YAML::anchor_t anchor, YAML::EmitterStyle::value) override
    {
        add("sequence " + tag + " " + std::to_string(anchor), mark);
    }
    void OnSequenceEnd() override { text += "end sequence\n"; }
    void OnMapStart(
        const YAML::Mark &mark, const std::string &tag, YAML::anchor_t anchor, YAML::EmitterStyle::value) override
    {
        add("map " + tag + " " + std::to_string(anchor), mark);
    }
    void OnMapEnd() override { text += "end map\n"; }

private:
    void add(const std::string &event, const YAML::Mark &mark)
    {
        text += event + " @" + std::to_string(mark.pos) + ":" + std::to_string(mark.line) + ":"
            + std::to_string(mark.column) + "\n";
    }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *bytes, std::size_t size)
{
    const std::string text(reinterpret_cast<const char *>(bytes), size);
    EventLog fast;
    if (!ccm::parseBlockYaml(text, fast))
        return 0;
    EventLog reference;
    try {
        std::istringstream stream(text);
        YAML::Parser parser(stream);
        while (parser.HandleNextDocument(reference)) { }
    } catch (const YAML::Exception &) {
        std::abort(); // accepted by the block parser, refused by yaml-cpp
    }
    if (fast.text != reference.text)
        std::abort();
    return 0;
}
