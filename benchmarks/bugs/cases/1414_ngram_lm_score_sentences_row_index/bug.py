import torch
import torch.nn as nn


class TinyNGramLM(nn.Module):
    """Batched back-off-free n-gram LM stored as dense transition tables.

    Args:
        num_states (int): number of LM states (contexts).
        vocab_size (int): number of labels.

    Attributes:
        arc_weights (torch.Tensor): log-probabilities of shape `[num_states, vocab_size]`.
        next_states (torch.LongTensor): destination state of shape `[num_states, vocab_size]`.
    """

    def __init__(self, num_states: int, vocab_size: int, bos_state: int = 0, seed: int = 0):
        super().__init__()
        g = torch.Generator().manual_seed(seed)
        self.bos_state = bos_state
        self.register_buffer("arc_weights", torch.randn(num_states, vocab_size, generator=g).log_softmax(-1))
        self.register_buffer("next_states", torch.randint(0, num_states, (num_states, vocab_size), generator=g))

    def get_init_states(self, batch_size: int) -> torch.Tensor:
        return torch.full([batch_size], self.bos_state, dtype=torch.long)

    def advance(self, states: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """
        Args:
            states: current states of shape `[B]`.

        Returns:
            scores `[B, V]` for every possible next label and destination states `[B, V]`.
        """
        return self.arc_weights[states], self.next_states[states]

    def score_sentences(self, labels: torch.Tensor, labels_lengths: torch.Tensor) -> torch.Tensor:
        """
        Args:
            labels: padded label sequences of shape `[B, L]`.
            labels_lengths: valid lengths of shape `[B]`.

        Returns:
            per-label LM log-probabilities of shape `[B, L]` (0 after each sequence end).
        """
        batch_size, max_length = labels.shape
        scores = torch.zeros(labels.shape)
        states = self.get_init_states(batch_size)
        for i in range(max_length):
            step_scores, states = self.advance(states)
            scores[:, i] = step_scores.gather(dim=1, index=labels[:, i].unsqueeze(0)).squeeze(0) * (i < labels_lengths)
            states = states.gather(dim=1, index=labels[:, i].unsqueeze(0)).squeeze(0)
        return scores


if __name__ == "__main__":
    lm = TinyNGramLM(num_states=12, vocab_size=20)
    labels = torch.tensor([[3, 7, 1, 4, 0], [5, 5, 2, 0, 0], [9, 11, 6, 8, 13]])
    lengths = torch.tensor([4, 3, 5])
    scores = lm.score_sentences(labels, lengths)

    reference = []
    for b in range(labels.shape[0]):
        state, total = lm.bos_state, 0.0
        for i in range(lengths[b].item()):
            label = labels[b, i].item()
            total += lm.arc_weights[state, label].item()
            state = lm.next_states[state, label].item()
        reference.append(total)
    print("sentence log-probs:", [round(s, 4) for s in scores.sum(-1).tolist()])
    print("loop reference:    ", [round(s, 4) for s in reference])
