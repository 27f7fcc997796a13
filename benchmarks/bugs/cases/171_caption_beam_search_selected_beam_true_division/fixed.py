import torch
import torch.nn as nn


class CaptionDecoder(nn.Module):
    def __init__(self, vocab_size, d_model):
        super().__init__()
        self.word_emb = nn.Embedding(vocab_size, d_model)
        self.cell = nn.GRUCell(d_model, d_model)
        self.out = nn.Linear(d_model, vocab_size)

    def step(self, word, state):
        # word: [N], state: [N, D]
        state = self.cell(self.word_emb(word), state)  # [N, D]
        return torch.log_softmax(self.out(state), dim=-1), state  # [N, V], [N, D]


def beam_search(decoder, enc_state, beam_size, max_len, bos=1):
    # enc_state: [B, D] pooled image features
    b_s, d = enc_state.shape
    state = enc_state.repeat_interleave(beam_size, dim=0)  # [B * K, D]
    word = torch.full((b_s * beam_size,), bos, dtype=torch.long)  # [B * K]
    seq_logprob = torch.zeros(b_s, beam_size, 1)  # [B, K, 1]
    seq_logprob[:, 1:] = float("-inf")  # all beams start identical
    tokens = []
    for _ in range(max_len):
        word_logprob, state = decoder.step(word, state)
        word_logprob = word_logprob.view(b_s, beam_size, -1)  # [B, K, V]
        candidate_logprob = seq_logprob + word_logprob  # [B, K, V]
        selected_logprob, selected_idx = candidate_logprob.view(b_s, -1).sort(-1, descending=True)
        selected_logprob, selected_idx = selected_logprob[:, :beam_size], selected_idx[:, :beam_size]  # [B, K]
        selected_beam = selected_idx // candidate_logprob.shape[-1]  # [B, K] parent beam
        selected_words = selected_idx - selected_beam * candidate_logprob.shape[-1]  # [B, K]
        state = torch.gather(state.view(b_s, beam_size, d), 1, selected_beam.unsqueeze(-1).expand(b_s, beam_size, d))
        state = state.view(-1, d)  # [B * K, D]
        tokens = [torch.gather(t, 1, selected_beam) for t in tokens] + [selected_words]
        seq_logprob = selected_logprob.unsqueeze(-1)  # [B, K, 1]
        word = selected_words.view(-1)  # [B * K]
    return torch.stack(tokens, dim=-1), seq_logprob.squeeze(-1)  # [B, K, T], [B, K]


if __name__ == "__main__":
    torch.manual_seed(0)
    decoder = CaptionDecoder(vocab_size=30, d_model=16)
    enc_state = torch.randn(2, 16)  # [B, D]
    with torch.no_grad():
        seqs, scores = beam_search(decoder, enc_state, beam_size=3, max_len=5)
        for b in range(2):
            for k in range(3):
                st, w, total = enc_state[b : b + 1], torch.tensor([1]), 0.0
                for t in range(5):
                    lp, st = decoder.step(w, st)
                    w = seqs[b, k, t : t + 1]
                    total += lp[0, w].item()
                assert abs(total - scores[b, k].item()) < 1e-4
    assert torch.all(scores[:, :-1] >= scores[:, 1:])
    print("ok")
