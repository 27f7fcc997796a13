import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


class StyleTransferEncoder(nn.Module):
    """Bi-GRU sentence encoder; the final hidden state is split into style and content codes."""

    def __init__(self, vocab_size, embed_dim, hidden_dim, style_dim, content_dim):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_dim, padding_idx=0)
        self.rnn = nn.GRU(embed_dim, hidden_dim, batch_first=True, bidirectional=True)
        self.style_head = nn.Linear(2 * hidden_dim, style_dim)
        self.content_head = nn.Linear(2 * hidden_dim, content_dim)

    def sentence_embedding(self, sequences, seq_lengths):
        # sequences: [B, T] padded with 0, seq_lengths: [B]
        embedded = self.embedding(sequences)                                  # [B, T, E]
        packed = pack_padded_sequence(embedded, seq_lengths, batch_first=True, enforce_sorted=False)
        packed_output, _ = self.rnn(packed)
        output, _ = pad_packed_sequence(packed_output, batch_first=True)    # [B, T, 2H]
        # final hidden state of every sentence: the output at its last real token
        sentence_emb = output[torch.arange(output.size(0)), seq_lengths - 1]  # [B, 2H]
        return sentence_emb

    def forward(self, sequences, seq_lengths):
        sentence_emb = self.sentence_embedding(sequences, seq_lengths)
        return self.style_head(sentence_emb), self.content_head(sentence_emb)


if __name__ == "__main__":
    torch.manual_seed(0)
    encoder = StyleTransferEncoder(vocab_size=50, embed_dim=8, hidden_dim=6, style_dim=4, content_dim=10)
    seq_lengths = torch.tensor([5, 3, 4])
    sequences = torch.zeros(3, 5, dtype=torch.long)
    for b, n in enumerate(seq_lengths.tolist()):
        sequences[b, :n] = torch.randint(1, 50, (n,))
    with torch.no_grad():
        emb = encoder.sentence_embedding(sequences, seq_lengths)
        refs = []
        for b, n in enumerate(seq_lengths.tolist()):
            out, _ = encoder.rnn(encoder.embedding(sequences[b : b + 1, :n]))  # [1, n, 2H]
            refs.append(torch.cat([out[0, n - 1, :6], out[0, 0, 6:]]))        # fwd end, bwd end
        ref = torch.stack(refs)
    print("forward half max err:", (emb[:, :6] - ref[:, :6]).abs().max().item())
    print("backward half max err:", (emb[:, 6:] - ref[:, 6:]).abs().max().item())
