import torch
import torch.nn as nn


def pad_sequences(sequences, maxlen, value=0):
    # keras-style padding='pre': real tokens are right-aligned
    out = torch.full((len(sequences), maxlen), value, dtype=torch.long)
    for i, seq in enumerate(sequences):
        out[i, maxlen - len(seq):] = torch.tensor(seq)
    return out


class SimpleLSTM(nn.Module):
    def __init__(self, vocab_size, embedding_dim, hidden_size, output_size):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embedding_dim, padding_idx=0)
        self.lstm = nn.LSTM(embedding_dim, hidden_size, batch_first=True)
        self.linear = nn.Linear(hidden_size, output_size)

    def forward(self, x, lengths):
        # x: (batch_size, max_len), lengths: (batch_size,)
        h = self.embedding(x)                 # (batch_size, max_len, embedding_dim)
        output, _ = self.lstm(h)              # (batch_size, max_len, hidden_size)
        output = self.linear(output)          # (batch_size, max_len, output_size)
        # keep only the output at the end of each sequence
        sequence_end = lengths - 1            # (batch_size,)
        output = output[torch.arange(x.shape[0]), sequence_end, :]
        return output                         # (batch_size, output_size)


def last_step_reference(model, x):
    with torch.no_grad():
        full = model.linear(model.lstm(model.embedding(x))[0])
    rows = []
    for b in range(x.shape[0]):
        last = max(t for t in range(x.shape[1]) if x[b, t] != 0)
        rows.append(full[b, last])
    return torch.stack(rows)


if __name__ == "__main__":
    torch.manual_seed(0)
    sequences = [[3, 7, 2, 9, 4, 1, 5], [6, 2, 8], [1, 1, 4, 3, 9], [5, 2, 7, 7, 3, 8, 6, 2, 4]]
    x = pad_sequences(sequences, maxlen=9)
    lengths = torch.tensor([len(s) for s in sequences])
    model = SimpleLSTM(vocab_size=10, embedding_dim=8, hidden_size=16, output_size=4)
    with torch.no_grad():
        logits = model(x, lengths)
    ref = last_step_reference(model, x)
    print("positions read:", (lengths - 1).tolist(), "last real token at:", [x.shape[1] - 1] * len(sequences))
    print("rows matching the last-step reference:", int(torch.isclose(logits, ref).all(dim=1).sum()), "of", len(sequences))
    print("max |diff|:", (logits - ref).abs().max().item())
