import torch
import torch.nn as nn


class StatelessDecoder(nn.Module):
    """Prediction network that only looks at the last `context_size` emitted tokens."""

    def __init__(self, vocab_size, dim, blank_id=0, context_size=2):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, dim)
        self.conv = nn.Conv1d(dim, dim, kernel_size=context_size, bias=False)
        self.blank_id = blank_id
        self.context_size = context_size

    def forward(self, y):
        """
        Args:
            y: (N, context_size) previous token ids.
        Returns:
            (N, dim) decoder output.
        """
        emb = self.embedding(y).permute(0, 2, 1)
        return torch.relu(self.conv(emb)).squeeze(-1)


class Joiner(nn.Module):
    def __init__(self, enc_dim, dec_dim, joiner_dim, vocab_size):
        super().__init__()
        self.enc_proj = nn.Linear(enc_dim, joiner_dim)
        self.dec_proj = nn.Linear(dec_dim, joiner_dim)
        self.out = nn.Linear(joiner_dim, vocab_size)

    def forward(self, encoder_out, decoder_out):
        """
        Args:
            encoder_out: (N, enc_dim) one acoustic frame per utterance.
            decoder_out: (N, dec_dim).
        Returns:
            (N, vocab_size) logits.
        """
        return self.out(torch.tanh(self.enc_proj(encoder_out) + self.dec_proj(decoder_out)))


def greedy_search(decoder, joiner, encoder_out, blank_id=0, context_size=2):
    """Transducer greedy search (one symbol per frame) for a single utterance.

    Args:
        decoder: StatelessDecoder.
        joiner: Joiner.
        encoder_out: (N, T, C) encoder output, with N == 1.

    Returns:
        list[int]: decoded token ids (blank removed).
    """
    assert encoder_out.ndim == 3 and encoder_out.size(0) == 1, encoder_out.shape
    T = encoder_out.size(1)
    hyp = [blank_id] * context_size
    decoder_input = torch.tensor([hyp[-context_size:]], dtype=torch.long)
    decoder_out = decoder(decoder_input)
    for t in range(T):
        encoder_out_t = encoder_out[:, t]
        joiner_out = joiner(encoder_out_t, decoder_out)
        y = int(joiner_out[0].argmax())
        if y != blank_id:
            hyp.append(y)
            decoder_input = torch.tensor([hyp[-context_size:]], dtype=torch.long)
            decoder_out = decoder(decoder_input)
    return hyp[context_size:]


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab_size, enc_dim, dec_dim = 12, 16, 16
    decoder = StatelessDecoder(vocab_size, dec_dim)
    joiner = Joiner(enc_dim, dec_dim, 24, vocab_size)
    encoder = nn.Sequential(nn.Linear(40, enc_dim), nn.Tanh())
    feats = torch.randn(1, 9, 40)
    with torch.no_grad():
        encoder_out = encoder(feats)
        tokens = greedy_search(decoder, joiner, encoder_out)

        # reference: frame-by-frame loop over the time axis of the single utterance
        ref, context = [], [0, 0]
        frames = encoder_out[0]
        for t in range(frames.shape[0]):
            dec = decoder(torch.tensor([context[-2:]]))[0]
            scores = [
                joiner(frames[t].unsqueeze(0), dec.unsqueeze(0))[0, v].item() for v in range(vocab_size)
            ]
            best = max(range(vocab_size), key=lambda v: scores[v])
            if best != 0:
                ref.append(best)
                context.append(best)
    assert tokens == ref, (tokens, ref)
    assert len(tokens) > 0
    print("ok", tokens)
