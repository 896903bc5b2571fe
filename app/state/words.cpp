#include "state/words.h"

namespace rope::app {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

}  // namespace

std::vector<std::string> split_words(std::string_view sentence) {
  std::vector<std::string> words;
  std::size_t i = 0;
  while (i < sentence.size()) {
    while (i < sentence.size() && is_space(sentence[i]))
      ++i;
    const std::size_t start = i;
    while (i < sentence.size() && !is_space(sentence[i]))
      ++i;
    std::string_view word = sentence.substr(start, i - start);
    while (!word.empty() && kWordPunctuation.find(word.front()) != std::string_view::npos)
      word.remove_prefix(1);
    while (!word.empty() && kWordPunctuation.find(word.back()) != std::string_view::npos)
      word.remove_suffix(1);
    if (!word.empty()) words.emplace_back(word);
  }
  return words;
}

}  // namespace rope::app
