import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

CONFIG = {
    "vocab_size": 30,
    "embedding_dim": 12,
    "encoder": {"hidden_size": 7, "bidirectional": True},
    "decoder_hidden": 14,
}


class SentenceEncoder(nn.Module):
    def __init__(self, config):
        super().__init__()
        enc = config["encoder"]
        self.embed = nn.Embedding(config["vocab_size"], config["embedding_dim"], padding_idx=0)
        self.rnn = nn.LSTM(config["embedding_dim"], enc["hidden_size"], batch_first=True,
                           bidirectional=enc["bidirectional"])

    def is_bidirectional(self):
        return self.rnn.bidirectional

    def forward(self, tokens, mask):
        lengths = mask.sum(1)
        packed = pack_padded_sequence(self.embed(tokens), lengths, batch_first=True, enforce_sorted=False)
        out, (h_n, _) = self.rnn(packed)
        out, _ = pad_packed_sequence(out, batch_first=True, total_length=tokens.size(1))
        return out, h_n


def final_encoder_output(encoder_outputs, mask, bidirectional=False):
    batch_size = encoder_outputs.size(0)
    last_word_indices = mask.sum(1).long() - 1
    expanded = last_word_indices.view(-1, 1, 1).expand(batch_size, 1, encoder_outputs.size(2))
    final = encoder_outputs.gather(1, expanded).squeeze(1)
    if bidirectional:
        half = encoder_outputs.size(2) // 2
        final = torch.cat([final[:, :half], encoder_outputs[:, 0, half:]], dim=-1)
    return final


class SemanticParserInit(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.encoder = SentenceEncoder(config)
        self.to_decoder = nn.Linear(2 * config["encoder"]["hidden_size"], config["decoder_hidden"])

    def initial_state(self, tokens, mask):
        outputs, h_n = self.encoder(tokens, mask)
        final = final_encoder_output(outputs, mask, self.encoder.is_bidirectional())
        return final, torch.tanh(self.to_decoder(final)), h_n


def make_batch(sentences):
    width = max(len(s) for s in sentences)
    tokens = torch.zeros(len(sentences), width, dtype=torch.long)
    for i, s in enumerate(sentences):
        tokens[i, : len(s)] = torch.tensor(s)
    return tokens, tokens.ne(0)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = SemanticParserInit(CONFIG)
    tokens, mask = make_batch([[4, 9, 2, 7, 3], [5, 8, 11], [6, 1, 13, 12]])
    with torch.no_grad():
        final, state, h_n = model.initial_state(tokens, mask)
    hidden = CONFIG["encoder"]["hidden_size"]
    with torch.no_grad():
        outputs, _ = model.encoder(tokens, mask)
    for b in range(tokens.size(0)):
        n = int(mask[b].sum())
        ref = torch.cat([outputs[b, n - 1, :hidden], outputs[b, 0, hidden:]])
        assert torch.allclose(final[b], ref, atol=1e-6)
    assert torch.allclose(final, torch.cat([h_n[-2], h_n[-1]], dim=-1), atol=1e-6)
    print("ok")
