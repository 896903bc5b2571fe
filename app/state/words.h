// state/words.h — the words of a sentence, as the sentence demo, the heatmap's sentence content
// and the lessons' quantities all see them.
//
// The rule: words are the runs of characters between ASCII white space (space, tab, line feed,
// carriage return, vertical tab, form feed); each word then loses the punctuation , . ; : ! ? " '
// at both of its ends, and a word that was only punctuation is dropped. Punctuation inside a word
// stays ("don't", "e.g", "3.14"), and so does any other character, UTF-8 included ("naïve",
// "«word»"). So "Python is love." has the words Python, is, love, and query_word=love finds the
// last one.
//
// Usage:
//   std::vector<std::string> w = split_words(params.sentence_a);   // {"Python", "is", "love"}
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rope::app {

// The punctuation a word loses at its ends.
inline constexpr std::string_view kWordPunctuation = ",.;:!?\"'";

std::vector<std::string> split_words(std::string_view sentence);

}  // namespace rope::app
