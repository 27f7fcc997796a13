import torch
from torch import nn, einsum
from torch.nn import Module


def exists(val):
    return val is not None


def default(val, d):
    return val if exists(val) else d


class CrossAttendGRU(Module):
    """Stand-in for the small causal transformer that cross attends to the encoded state."""

    def __init__(self, dim):
        super().__init__()
        self.to_context = nn.Linear(dim, dim)
        self.rnn = nn.GRU(dim, dim, batch_first = True)
        self.norm = nn.LayerNorm(dim)

    def forward(self, tokens, context):
        context = self.to_context(context.mean(dim = 1, keepdim = True))
        out, _ = self.rnn(tokens + context)
        return self.norm(out)


class QHeadMultipleActions(Module):
    def __init__(
        self,
        dim,
        *,
        num_actions = 8,
        action_bins = 256,
    ):
        super().__init__()
        self.num_actions = num_actions
        self.action_bins = action_bins

        self.action_bin_embeddings = nn.Parameter(torch.zeros(num_actions, action_bins, dim))
        nn.init.normal_(self.action_bin_embeddings, std = 0.02)

        self.transformer = CrossAttendGRU(dim)

    @property
    def device(self):
        return self.action_bin_embeddings.device

    def get_random_actions(self, batch_size, num_action_bins = None):
        num_action_bins = default(num_action_bins, self.action_bins)
        return torch.randint(0, num_action_bins, (batch_size, num_action_bins), device = self.device)

    @torch.no_grad()
    def get_optimal_actions(
        self,
        encoded_state,
        prob_random_action: float = 0.5,
    ):
        assert 0. <= prob_random_action <= 1.
        batch = encoded_state.shape[0]

        if prob_random_action == 1:
            return self.get_random_actions(self, batch)

        tokens = encoded_state.mean(dim = 1, keepdim = True)   # sos token

        action_bins = []

        for action_idx in range(self.num_actions):

            embed = self.transformer(tokens, context = encoded_state)

            last_embed = embed[:, action_idx]
            bin_embeddings = self.action_bin_embeddings[action_idx]

            q_values = einsum('b d, a d -> b a', last_embed, bin_embeddings)

            selected_action_bins = q_values.argmax(dim = -1)

            if prob_random_action > 0.:
                random_mask = torch.zeros_like(selected_action_bins).float().uniform_(0., 1.) < prob_random_action
                random_actions = self.get_random_actions(batch, 1)
                random_actions = random_actions.squeeze(-1)

                selected_action_bins = torch.where(
                    random_mask,
                    random_actions,
                    selected_action_bins
                )

            next_action_embed = bin_embeddings[selected_action_bins]

            tokens = torch.cat((tokens, next_action_embed[:, None]), dim = 1)

            action_bins.append(selected_action_bins)

        action_bins = torch.stack(action_bins, dim = -1)
        return action_bins


if __name__ == "__main__":
    torch.manual_seed(0)
    dim, num_actions, action_bins = 32, 6, 256
    q_head = QHeadMultipleActions(dim, num_actions = num_actions, action_bins = action_bins).eval()

    encoded_state = torch.randn(128, 10, dim)      # 128 robot states, 10 encoded tokens each
    actions = q_head.get_optimal_actions(encoded_state, prob_random_action = 0.5)

    # with epsilon = 0.5 about half the bins should be uniform over 256 values
    print("actions:", tuple(actions.shape))
    print("fraction of bin 0 per action dim:", [round(v, 3) for v in (actions == 0).float().mean(0).tolist()])
    print("distinct bins used:", actions.unique().numel())
