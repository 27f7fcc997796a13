import torch
import torch.nn as nn


def create_position_ids_from_input_ids(input_ids, padding_idx):
    # positions start at padding_idx + 1; pad tokens keep padding_idx
    mask = input_ids.ne(padding_idx).int()
    incremental_indices = torch.cumsum(mask, dim=1).type_as(mask) * mask
    return incremental_indices.long() + padding_idx


class RobertaStyleEmbeddings(nn.Module):
    def __init__(self, vocab_size, hidden_size, max_position_embeddings, pad_token_id):
        super().__init__()
        self.padding_idx = pad_token_id
        self.word_embeddings = nn.Embedding(vocab_size, hidden_size, padding_idx=pad_token_id)
        self.position_embeddings = nn.Embedding(max_position_embeddings, hidden_size, padding_idx=pad_token_id)
        self.layer_norm = nn.LayerNorm(hidden_size)

    def forward(self, input_ids):
        # input_ids: [B, L]
        position_ids = create_position_ids_from_input_ids(input_ids, self.padding_idx)  # [B, L]
        words = self.word_embeddings(input_ids)  # [B, L, H]
        positions = self.position_embeddings(position_ids)  # [B, L, H]
        return self.layer_norm(words + positions)


class WordTokenizer:
    def __init__(self, words, bos_id=0, pad_id=1, eos_id=2):
        self.ids = {w: i + 3 for i, w in enumerate(words)}
        self.bos_id, self.pad_id, self.eos_id = bos_id, pad_id, eos_id

    def encode(self, text, max_length=None):
        ids = [self.ids[w] for w in text.split()]
        if max_length is not None:
            ids = ids[: max_length - 2]
        return [self.bos_id] + ids + [self.eos_id]


if __name__ == "__main__":
    torch.manual_seed(0)
    max_positions = 34  # 32 tokens + the 2 offset slots
    tokenizer = WordTokenizer(["hello", "to", "this", "world"])
    embeddings = RobertaStyleEmbeddings(vocab_size=7, hidden_size=16, max_position_embeddings=max_positions, pad_token_id=1)

    document = " ".join(["hello to this world"] * 12)  # 48 words
    input_ids = torch.tensor(tokenizer.encode(document)).unsqueeze(0)  # [1, 50]
    with torch.no_grad():
        hidden = embeddings(input_ids)
    print(hidden.shape)
