import torch
import torch.nn as nn
import torch.nn.functional as F


class CaptionDecoder(nn.Module):
    """One-step GRU decoder whose hidden state lives in a buffer, as in stateful captioning models."""

    def __init__(self, vocab_size, d_model, feat_dim):
        super().__init__()
        self.word_emb = nn.Embedding(vocab_size, d_model)
        self.init_state = nn.Linear(feat_dim, d_model)
        self.cell = nn.GRUCell(d_model, d_model)
        self.out = nn.Linear(d_model, vocab_size)
        self.register_buffer("running_state", torch.zeros(0, d_model))

    def start(self, visual):
        self.running_state = torch.tanh(self.init_state(visual))  # (b_s, d_model)

    def step(self, word):
        self.running_state = self.cell(self.word_emb(word), self.running_state)
        return F.log_softmax(self.out(self.running_state), dim=-1)  # (b_s * cur_beam, vocab)

    def apply_to_states(self, fn):
        self.running_state = fn(self.running_state)


class BeamSearch:
    def __init__(self, model, max_len, eos_idx, beam_size):
        self.model = model
        self.max_len = max_len
        self.eos_idx = eos_idx
        self.beam_size = beam_size

    def _expand_state(self, selected_beam, cur_beam_size):
        def fn(s):
            shape = [int(sh) for sh in s.shape]
            beam = selected_beam
            for _ in shape[1:]:
                beam = beam.unsqueeze(-1)
            s = torch.gather(s.view(*([self.b_s, cur_beam_size] + shape[1:])), 1,
                             beam.expand(*([self.b_s, self.beam_size] + shape[1:])))
            return s.view(*([-1] + shape[1:]))
        return fn

    def apply(self, visual, bos_idx):
        self.b_s = visual.shape[0]
        self.model.start(visual)
        seq_logprob = torch.zeros(self.b_s, 1)  # (b_s, 1)
        word = torch.full((self.b_s,), bos_idx, dtype=torch.long)
        outputs = []
        for t in range(self.max_len):
            cur_beam_size = 1 if t == 0 else self.beam_size
            word_logprob = self.model.step(word).view(self.b_s, cur_beam_size, -1)  # (b_s, cur_beam, vocab)
            candidate_logprob = seq_logprob.unsqueeze(-1) + word_logprob
            flat = candidate_logprob.view(self.b_s, -1)  # (b_s, cur_beam * vocab)
            selected_logprob, selected_idx = torch.sort(flat, -1, descending=True)
            selected_logprob, selected_idx = selected_logprob[:, :self.beam_size], selected_idx[:, :self.beam_size]
            selected_beam = selected_idx / candidate_logprob.shape[-1]  # (b_s, beam)
            selected_words = selected_idx - selected_beam * candidate_logprob.shape[-1]  # (b_s, beam)
            self.model.apply_to_states(self._expand_state(selected_beam, cur_beam_size))
            outputs = [torch.gather(o, 1, selected_beam) for o in outputs]
            outputs.append(selected_words)
            seq_logprob = selected_logprob
            word = selected_words.reshape(-1)
        return torch.stack(outputs, -1), seq_logprob


if __name__ == "__main__":
    torch.manual_seed(0)
    decoder = CaptionDecoder(vocab_size=12, d_model=16, feat_dim=10)
    visual = torch.randn(2, 10)
    with torch.no_grad():
        captions, logprobs = BeamSearch(decoder, max_len=4, eos_idx=2, beam_size=3).apply(visual, bos_idx=1)
    print("captions:", captions.tolist())
