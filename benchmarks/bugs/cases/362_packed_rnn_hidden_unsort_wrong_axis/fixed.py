import torch
import torch.nn as nn

CONFIG = {"vocab_size": 50, "embed_dim": 16, "hidden_dim": 8, "n_layers": 2,
          "bidirectional": True, "class_num": 3, "batch_first": True}


def prepare_pack_padded_sequence(inputs, lengths, descending=True):
    sorted_lengths, indices = torch.sort(lengths, descending=descending)
    _, desorted_indices = torch.sort(indices, descending=False)
    return inputs[indices], sorted_lengths, desorted_indices


class RNNClassifier(nn.Module):
    def __init__(self, vocab_size, embed_dim, hidden_dim, n_layers, bidirectional, class_num, batch_first):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_dim, padding_idx=0)
        self.rnn = nn.LSTM(embed_dim, hidden_dim, num_layers=n_layers, bidirectional=bidirectional,
                           batch_first=batch_first)
        self.batch_first = batch_first
        self.fc = nn.Linear(hidden_dim * (2 if bidirectional else 1), class_num)

    def forward(self, text, text_lengths):
        text, sorted_lengths, desorted_indices = prepare_pack_padded_sequence(text, text_lengths)
        embedded = self.embedding(text)
        packed = nn.utils.rnn.pack_padded_sequence(embedded, sorted_lengths, batch_first=self.batch_first)
        packed_output, (hidden, cell) = self.rnn(packed)
        output, _ = nn.utils.rnn.pad_packed_sequence(packed_output, batch_first=self.batch_first)
        output = output[desorted_indices]
        hidden = hidden[:, desorted_indices]
        last_layer = torch.cat([hidden[-2], hidden[-1]], dim=-1)
        return self.fc(last_layer), output


def make_batch(lengths, vocab_size, seed=0):
    g = torch.Generator().manual_seed(seed)
    text = torch.zeros(len(lengths), max(lengths), dtype=torch.long)
    for i, n in enumerate(lengths):
        text[i, :n] = torch.randint(1, vocab_size, (n,), generator=g)
    return text, torch.tensor(lengths)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = RNNClassifier(**CONFIG)
    text, lengths = make_batch([3, 7, 5, 2, 6, 4], CONFIG["vocab_size"])
    logits, output = model(text, lengths)
    with torch.no_grad():
        for i, n in enumerate(lengths.tolist()):
            emb = model.embedding(text[i:i + 1, :n])
            out_i, (h_i, _) = model.rnn(emb)
            ref_logits = model.fc(torch.cat([h_i[-2, 0], h_i[-1, 0]], dim=-1))
            assert torch.allclose(logits[i], ref_logits, atol=1e-5)
            assert torch.allclose(output[i, :n], out_i[0], atol=1e-5)
    print("ok", tuple(logits.shape))
