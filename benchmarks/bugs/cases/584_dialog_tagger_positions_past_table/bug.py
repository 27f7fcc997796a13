from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class TaggerConfig:
    vocab_size: int = 500
    hidden_size: int = 32
    max_position_embeddings: int = 66     # 64 tokens + padding_idx offset
    pad_token_id: int = 1
    num_labels: int = 7


def create_position_ids_from_input_ids(input_ids, padding_idx):
    """Replace non-padding symbols with their position numbers, starting at padding_idx + 1.

    Args:
        input_ids (`torch.LongTensor` of shape `(batch_size, sequence_length)`)

    Returns:
        `torch.LongTensor` of shape `(batch_size, sequence_length)`
    """
    mask = input_ids.ne(padding_idx).int()
    incremental_indices = torch.cumsum(mask, dim=1).type_as(mask) * mask
    return incremental_indices.long() + padding_idx


class DialogActTagger(nn.Module):
    def __init__(self, config: TaggerConfig):
        super().__init__()
        self.config = config
        self.word_embeddings = nn.Embedding(config.vocab_size, config.hidden_size, padding_idx=config.pad_token_id)
        self.position_embeddings = nn.Embedding(config.max_position_embeddings, config.hidden_size,
                                                padding_idx=config.pad_token_id)
        self.classifier = nn.Linear(config.hidden_size, config.num_labels)

    def forward(self, input_ids):
        """
        Args:
            input_ids (`torch.LongTensor` of shape `(batch_size, sequence_length)`):
                Token ids of a whole call transcript.

        Returns:
            `torch.FloatTensor` of shape `(batch_size, sequence_length, num_labels)`: per-token tag logits.
        """
        position_ids = create_position_ids_from_input_ids(input_ids, self.config.pad_token_id)
        hidden = self.word_embeddings(input_ids) + self.position_embeddings(position_ids)
        return self.classifier(torch.tanh(hidden))


def tag_transcript(model, token_ids):
    input_ids = torch.tensor([token_ids])
    return model(input_ids).argmax(-1)[0]


if __name__ == "__main__":
    torch.manual_seed(0)
    config = TaggerConfig()
    model = DialogActTagger(config).eval()
    transcript = torch.randint(2, config.vocab_size, (90,)).tolist()   # a long call
    with torch.no_grad():
        tags = tag_transcript(model, transcript)
    print("tags:", tags.tolist())
