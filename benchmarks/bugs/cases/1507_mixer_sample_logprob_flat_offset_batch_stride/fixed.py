import torch
import torch.nn as nn
import torch.nn.functional as F


class MixerDecoder(nn.Module):
    """LSTM decoder trained with MIXER: cross entropy on the first steps, REINFORCE on the rest."""

    def __init__(self, vocab_size, embed_size, hidden_size):
        super().__init__()
        self.vocab_size = vocab_size
        self.embed = nn.Embedding(vocab_size, embed_size)
        self.cell = nn.LSTMCell(embed_size, hidden_size)
        self.readout = nn.Linear(hidden_size, vocab_size)
        self.baseline = nn.Linear(hidden_size, 1)

    def sample(self, y0, state, n_steps):
        """
        :param y0: (batch_size,) first input token of the sampled part
        :param state: tuple of (batch_size, hidden_size) LSTM states
        :param n_steps: number of tokens to sample
        :return: samples (n_steps, batch_size), neg log-probs (n_steps, batch_size), baselines
        """
        batch_size = y0.size(0)
        offset = torch.arange(batch_size) * self.vocab_size
        eps = torch.full((batch_size * self.vocab_size,), 1e-20)

        y_tm1, h, c = y0, state[0], state[1]
        samples, sample_losses, baselines = [], [], []
        for _ in range(n_steps):
            h, c = self.cell(self.embed(y_tm1), (h, c))
            p_t = F.softmax(self.readout(h), dim=-1)
            baselines.append(self.baseline(h.detach()).squeeze(1))
            y_t = torch.multinomial(p_t, num_samples=1).squeeze(1).detach()
            flat_nll = -torch.log(p_t.view(-1) + eps)
            sample_losses.append(flat_nll[y_t + offset])
            samples.append(y_t)
            y_tm1 = y_t
        return torch.stack(samples), torch.stack(sample_losses), torch.stack(baselines)


def reinforce_loss(sample_losses, baselines, rewards):
    """
    :param sample_losses: (T, batch_size) -log p(sampled token)
    :param baselines: (T, batch_size) predicted reward
    :param rewards: (batch_size,) sentence-level reward
    """
    advantage = (rewards.unsqueeze(0) - baselines).detach()
    return (sample_losses * advantage).sum(0).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    dec = MixerDecoder(vocab_size=50, embed_size=16, hidden_size=32)
    y0 = torch.randint(0, 50, (4,))
    state = (torch.zeros(4, 32), torch.zeros(4, 32))
    torch.manual_seed(1)
    samples, nll, base = dec.sample(y0, state, n_steps=5)

    # reference: replay the same samples and read -log p row by row
    h, c, y = state[0], state[1], y0
    ref = []
    for t in range(samples.size(0)):
        h, c = dec.cell(dec.embed(y), (h, c))
        p = F.softmax(dec.readout(h), dim=-1)
        ref.append(torch.stack([-torch.log(p[b, samples[t, b]] + 1e-20) for b in range(4)]))
        y = samples[t]
    ref = torch.stack(ref)
    assert torch.allclose(nll, ref, atol=1e-5)
    print("ok")
