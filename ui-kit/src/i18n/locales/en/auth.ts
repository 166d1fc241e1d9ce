/** Signing in and up, passwords and email verification. */
export const auth = {
  signIn: {
    title: "Sign in",
    description: "Welcome back. Sign in to continue.",
    submit: "Sign in",
    rememberMe: "Remember me",
    forgotPassword: "Forgot password?",
    noAccount: "Don't have an account?",
    signUpLink: "Sign up",
    socialHeading: "Sign in with",
    emailNotVerified: "Verify your email address first: we sent you a link.",
    resendVerification: "Send the link again",
    verificationSent: ({ email }: { email: string }) => `We sent a new link to ${email}.`,
  },
};
