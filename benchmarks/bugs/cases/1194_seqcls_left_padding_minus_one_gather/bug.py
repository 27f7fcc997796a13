import torch
import torch.nn as nn

PAD_ID = 0


def collate_left_padded(batch):
    max_len = max(len(x) for x in batch)
    ids = torch.full((len(batch), max_len), PAD_ID, dtype=torch.long)
    for i, x in enumerate(batch):
        ids[i, max_len - len(x):] = torch.tensor(x)
    return ids


class TinyCausalLMForSequenceClassification(nn.Module):
    def __init__(self, vocab_size, hidden_size, num_labels, pad_token_id):
        super().__init__()
        self.pad_token_id = pad_token_id
        self.embed = nn.Embedding(vocab_size, hidden_size)
        self.mix = nn.Linear(hidden_size, hidden_size)
        self.score = nn.Linear(hidden_size, num_labels, bias=False)

    def forward(self, input_ids):
        hidden = torch.tanh(self.mix(self.embed(input_ids)))
        hidden = hidden.cumsum(dim=1)
        sequence_lengths = torch.eq(input_ids, self.pad_token_id).int().argmax(-1) - 1
        idx = sequence_lengths.view(-1, 1, 1).expand(-1, 1, hidden.size(-1))
        pooled = hidden.gather(1, idx).squeeze(1)
        return self.score(pooled)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyCausalLMForSequenceClassification(vocab_size=50, hidden_size=16, num_labels=3, pad_token_id=PAD_ID)
    batch = collate_left_padded([[5, 9, 13, 2], [7, 3], [11, 4, 8]])
    print(model(batch))
