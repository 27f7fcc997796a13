import torch
import torch.nn.functional as F
from torch import nn


class ScriptedDecoder(nn.Module):
    """Stands in for the RNN decoder: the hidden state holds a countdown and a word offset."""

    def __init__(self, vocab_size, eos_idx):
        super().__init__()
        self.vocab_size = vocab_size
        self.eos_idx = eos_idx

    def forward(self, input_sequence, hidden):
        # input_sequence: (n,)   hidden: (n, 2) = [steps left, offset]
        hidden = hidden - torch.tensor([1.0, 0.0])
        word = 3 + (input_sequence + hidden[:, 1].long()) % (self.vocab_size - 3)  # (n,)
        word = torch.where(hidden[:, 0] <= 0, torch.full_like(word, self.eos_idx), word)
        logits = F.one_hot(word, self.vocab_size).float() * 10.0  # (n, V)
        return logits, hidden


class SentenceVAE(nn.Module):
    def __init__(self, vocab_size=20, max_sequence_length=8, sos_idx=1, eos_idx=2, pad_idx=0):
        super().__init__()
        self.max_sequence_length = max_sequence_length
        self.sos_idx, self.eos_idx, self.pad_idx = sos_idx, eos_idx, pad_idx
        self.decoder = ScriptedDecoder(vocab_size, eos_idx)

    def latent2hidden(self, z):
        # z: (B, 1) planned lengths -> hidden: (B, 2)
        offsets = torch.arange(z.size(0), dtype=torch.float).unsqueeze(1)  # (B, 1)
        return torch.cat([z, offsets], dim=1)

    def _sample(self, dist):
        # dist: (n, V) -> greedy token per running sequence
        _, sample = torch.topk(dist, 1, dim=-1)  # (n, 1)
        sample = sample.squeeze(-1)  # (n,) even when a single sequence is left
        return sample

    def _save_sample(self, save_to, sample, running_seqs, t):
        running_latest = save_to[running_seqs]  # (n, L)
        running_latest[:, t] = sample
        save_to[running_seqs] = running_latest
        return save_to

    def inference(self, z):
        batch_size = z.size(0)
        hidden = self.latent2hidden(z)
        sequence_idx = torch.arange(0, batch_size).long()
        sequence_running = torch.arange(0, batch_size).long()
        sequence_mask = torch.ones(batch_size).bool()
        running_seqs = torch.arange(0, batch_size).long()
        generations = torch.full((batch_size, self.max_sequence_length), self.pad_idx).long()

        t = 0
        while t < self.max_sequence_length and len(running_seqs) > 0:
            if t == 0:
                input_sequence = torch.full((batch_size,), self.sos_idx).long()
            logits, hidden = self.decoder(input_sequence, hidden)
            input_sequence = self._sample(logits)
            generations = self._save_sample(generations, input_sequence, sequence_running, t)

            sequence_mask[sequence_running] = input_sequence != self.eos_idx
            sequence_running = sequence_idx.masked_select(sequence_mask)
            running_mask = input_sequence != self.eos_idx
            running_seqs = running_seqs.masked_select(running_mask)

            if len(running_seqs) > 0:
                input_sequence = input_sequence[running_seqs]
                hidden = hidden[running_seqs]
                running_seqs = torch.arange(0, len(running_seqs)).long()
            t += 1
        return generations


def reference_generation(model, length, offset):
    out = [model.pad_idx] * model.max_sequence_length
    token, steps_left = model.sos_idx, float(length)
    for t in range(model.max_sequence_length):
        steps_left -= 1
        token = model.eos_idx if steps_left <= 0 else 3 + (token + offset) % (model.decoder.vocab_size - 3)
        out[t] = token
        if token == model.eos_idx:
            break
    return out


if __name__ == "__main__":
    model = SentenceVAE()
    z = torch.tensor([[2.0], [5.0], [3.0]])  # the three samples stop after 2, 5 and 3 steps
    samples = model.inference(z)
    for b in range(3):
        assert samples[b].tolist() == reference_generation(model, int(z[b, 0]), b), (b, samples[b].tolist())
    print("ok")
