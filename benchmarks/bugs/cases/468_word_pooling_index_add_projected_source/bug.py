from dataclasses import dataclass

import torch
from torch import nn


@dataclass
class TaggerConfig:
    hidden_size: int = 48
    proj_size: int = 32
    num_tags: int = 5


class SubwordToWordPooler(nn.Module):
    def __init__(self, config: TaggerConfig):
        super().__init__()
        self.config = config
        self.proj = nn.Linear(config.hidden_size, config.proj_size)
        self.classifier = nn.Linear(config.proj_size, config.num_tags)

    def forward(self, subword_states, word_ids, num_words):
        """Average sub-word vectors into word vectors and tag each word.

        Args:
            subword_states (`torch.FloatTensor` of shape `(num_subwords, hidden_size)`):
                Encoder output for one sentence.
            word_ids (`torch.LongTensor` of shape `(num_subwords,)`):
                Index of the word each sub-word belongs to.
            num_words (`int`): number of words in the sentence.

        Returns:
            `torch.FloatTensor` of shape `(num_words, num_tags)`.
        """
        projected = torch.tanh(self.proj(subword_states))
        word_sum = torch.zeros(num_words, self.config.hidden_size)
        word_sum.index_add_(0, word_ids, projected)
        counts = torch.bincount(word_ids, minlength=num_words).clamp_min(1).unsqueeze(1)
        return self.classifier(word_sum / counts)


if __name__ == "__main__":
    torch.manual_seed(0)
    config = TaggerConfig()
    pooler = SubwordToWordPooler(config)
    word_ids = torch.tensor([0, 1, 1, 2, 3, 3, 3, 4, 5, 6, 6])
    states = torch.randn(word_ids.shape[0], config.hidden_size)
    logits = pooler(states, word_ids, num_words=7)
    print("tag logits:", tuple(logits.shape))
