import torch


class OptionCriticLoss:
    """Losses of an A2C-style option-critic agent.

    Args:
        entropy_weight (float): weight of the intra-option policy entropy bonus.
        termination_regularizer (float): margin added to the termination advantage.
    """

    def __init__(self, entropy_weight=0.01, termination_regularizer=0.01):
        self.entropy_weight = entropy_weight
        self.termination_regularizer = termination_regularizer

    def __call__(self, q, log_pi, beta, option, prev_option, action, ret, adv, beta_adv, ent, initial):
        """
        Args:
            q (Tensor): option values Q(s, w), shape (N, num_options).
            log_pi (Tensor): intra-option action log-probs of the chosen option, shape (N, num_actions).
            beta (Tensor): termination probabilities, shape (N, num_options).
            option (LongTensor): option executed at each step, shape (N, 1).
            prev_option (LongTensor): option of the previous step, shape (N, 1).
            action (LongTensor): primitive action taken, shape (N, 1).
            ret (Tensor): n-step option returns, shape (N, 1).
            adv (Tensor): policy advantages, shape (N, 1).
            beta_adv (Tensor): termination advantages, shape (N, 1).
            ent (Tensor): policy entropy, shape (N, 1).
            initial (Tensor): 1.0 where the episode starts, shape (N, 1).

        Returns:
            Tensor: scalar loss.
        """
        q_loss = (q.gather(1, option) - ret.detach()).pow(2).mul(0.5).mean()
        pi_loss = -(log_pi.gather(1, action) * adv.detach()) - self.entropy_weight * ent
        pi_loss = pi_loss.mean()
        beta_loss = (beta.gather(1, prev_option) * beta_adv.detach() * (1 - initial)).mean()
        return pi_loss + q_loss + beta_loss


def make_rollout(n, num_options=4, num_actions=6):
    q = torch.randn(n, num_options)
    log_pi = torch.log_softmax(torch.randn(n, num_actions), dim=-1)
    beta = torch.sigmoid(torch.randn(n, num_options))
    option = torch.randint(0, num_options, (n, 1))
    prev_option = torch.randint(0, num_options, (n, 1))
    action = torch.randint(0, num_actions, (n, 1))
    ret = torch.randn(n, 1)
    adv = torch.randn(n, 1)
    beta_adv = torch.randn(n, 1)
    ent = -(log_pi.exp() * log_pi).sum(-1, keepdim=True)
    initial = (torch.rand(n, 1) < 0.05).float()
    return q, log_pi, beta, option, prev_option, action, ret, adv, beta_adv, ent, initial


if __name__ == "__main__":
    torch.manual_seed(0)
    batch = make_rollout(40)
    loss = OptionCriticLoss()(*batch)

    q, log_pi, beta, option, prev_option, action, ret, adv, beta_adv, ent, initial = batch
    terms = []
    for i in range(40):
        o, po, a = option[i, 0].item(), prev_option[i, 0].item(), action[i, 0].item()
        q_term = 0.5 * (q[i, o] - ret[i, 0]) ** 2
        pi_term = -log_pi[i, a] * adv[i, 0] - 0.01 * ent[i, 0]
        beta_term = beta[i, po] * beta_adv[i, 0] * (1 - initial[i, 0])
        terms.append((q_term, pi_term, beta_term))
    ref = sum(sum(t) for t in terms) / 40
    assert torch.allclose(loss, ref, atol=1e-5)
    print("ok")
