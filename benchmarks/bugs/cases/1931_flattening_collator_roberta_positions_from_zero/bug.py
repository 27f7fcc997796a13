import torch
import torch.nn as nn


class DataCollatorWithFlattening:
    """Packs a list of tokenized examples into a single row without padding.

    Each feature is a dict with "input_ids" (a list of token ids). The returned batch holds
    "input_ids" and "position_ids" of shape (1, total_tokens), where the position ids restart for
    every example, and "cu_seq_lens" of shape (num_examples + 1,) with the example boundaries.
    """

    def __init__(self, return_position_ids=True):
        self.return_position_ids = return_position_ids

    def __call__(self, features):
        input_ids, position_ids, cu_seq_lens = [], [], [0]
        for feature in features:
            ids = feature["input_ids"]
            input_ids += ids
            position_ids += list(range(len(ids)))
            cu_seq_lens.append(cu_seq_lens[-1] + len(ids))
        batch = {"input_ids": torch.tensor([input_ids]), "cu_seq_lens": torch.tensor(cu_seq_lens)}
        if self.return_position_ids:
            batch["position_ids"] = torch.tensor([position_ids])
        return batch


class RobertaEmbeddings(nn.Module):
    """Word plus learned absolute position embeddings, fairseq style.

    Real tokens get positions padding_idx + 1, padding_idx + 2, ... so the position table has
    max_position_embeddings = max_len + padding_idx + 1 rows, of which rows 0..padding_idx are never
    read by the model. input_ids and position_ids are (batch, seq_len); the output is
    (batch, seq_len, hidden).
    """

    def __init__(self, vocab_size, hidden_size, max_len, pad_token_id):
        super().__init__()
        self.padding_idx = pad_token_id
        self.word_embeddings = nn.Embedding(vocab_size, hidden_size, padding_idx=pad_token_id)
        self.position_embeddings = nn.Embedding(max_len + pad_token_id + 1, hidden_size, padding_idx=pad_token_id)
        self.LayerNorm = nn.LayerNorm(hidden_size)

    def create_position_ids_from_input_ids(self, input_ids):
        mask = input_ids.ne(self.padding_idx).int()
        incremental_indices = torch.cumsum(mask, dim=1).type_as(mask) * mask
        return incremental_indices.long() + self.padding_idx

    def forward(self, input_ids, position_ids=None):
        if position_ids is None:
            position_ids = self.create_position_ids_from_input_ids(input_ids)
        embeddings = self.word_embeddings(input_ids) + self.position_embeddings(position_ids)
        return self.LayerNorm(embeddings)


class MeanPoolingEncoder(nn.Module):
    """Sentence encoder: embeddings, a token-wise feed-forward block, mean pooling.

    forward() takes a padded batch (batch, seq_len) and returns (batch, hidden);
    forward_packed() takes the flattened batch of DataCollatorWithFlattening and returns
    (num_examples, hidden), pooling every example between consecutive cu_seq_lens.
    """

    def __init__(self, vocab_size, hidden_size, max_len, pad_token_id):
        super().__init__()
        self.embeddings = RobertaEmbeddings(vocab_size, hidden_size, max_len, pad_token_id)
        self.ffn = nn.Sequential(nn.Linear(hidden_size, 2 * hidden_size), nn.GELU(), nn.Linear(2 * hidden_size, hidden_size))

    def forward(self, input_ids):
        hidden = self.embeddings(input_ids)
        hidden = hidden + self.ffn(hidden)
        mask = input_ids.ne(self.embeddings.padding_idx).unsqueeze(-1).float()
        return (hidden * mask).sum(1) / mask.sum(1)

    def forward_packed(self, input_ids, position_ids, cu_seq_lens):
        hidden = self.embeddings(input_ids, position_ids=position_ids)[0]
        hidden = hidden + self.ffn(hidden)
        lengths = cu_seq_lens[1:] - cu_seq_lens[:-1]
        segment = torch.repeat_interleave(torch.arange(len(lengths)), lengths)
        pooled = torch.zeros(len(lengths), hidden.shape[-1]).index_add_(0, segment, hidden)
        return pooled / lengths.unsqueeze(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    PAD = 1
    model = MeanPoolingEncoder(vocab_size=50, hidden_size=16, max_len=32, pad_token_id=PAD).eval()
    sentences = [[0, 12, 7, 33, 2], [0, 40, 2], [0, 5, 6, 9, 21, 44, 2]]
    collator = DataCollatorWithFlattening()
    batch = collator([{"input_ids": s} for s in sentences])
    with torch.no_grad():
        packed = model.forward_packed(batch["input_ids"], batch["position_ids"], batch["cu_seq_lens"])
        padded = nn.utils.rnn.pad_sequence([torch.tensor(s) for s in sentences], batch_first=True, padding_value=PAD)
        unpacked = model(padded)
    print("max |packed - padded| per sentence:", (packed - unpacked).abs().amax(-1))
