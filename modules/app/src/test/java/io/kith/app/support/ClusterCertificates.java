package io.kith.app.support;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.util.io.pem.PemObjectGenerator;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A cluster CA made by a test, writing PEM files as an operator's openssl commands would (README, Cluster mode): the
 * CA certificate, and per node a PKCS#8 private key and a certificate the CA signed, good for TLS server and client
 * (or both in one PKCS#12 file, as Keychain exports an APNs certificate).
 */
public final class ClusterCertificates {

  private static final AtomicLong SERIAL = new AtomicLong(System.currentTimeMillis());

  private final Path dir;
  private final String name;
  private final KeyPair caKeys;
  private final X500Name caSubject;
  private final Path caFile;

  /** One node's files. */
  public record NodeFiles(Path key, Path cert) {
  }

  private ClusterCertificates(Path dir, String name) throws GeneralSecurityException, IOException {
    this.dir = dir;
    this.name = name;
    this.caKeys = keyPair();
    this.caSubject = new X500Name("CN=" + name);
    X509CertificateHolder ca = sign(caSubject, caKeys, true);
    this.caFile = dir.resolve(name + "-ca.pem");
    write(caFile, ca);
  }

  /** A new CA called {@code name} whose files go to {@code dir}. */
  public static ClusterCertificates create(Path dir, String name) {
    try {
      Files.createDirectories(dir);
      return new ClusterCertificates(dir, name);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The CA certificate (PEM). */
  public Path caFile() {
    return caFile;
  }

  /** A key and a certificate for {@code node}, signed by this CA. */
  public NodeFiles issue(String node) {
    try {
      KeyPair keys = keyPair();
      X509CertificateHolder cert = sign(new X500Name("CN=" + node), keys, false);
      NodeFiles files = new NodeFiles(dir.resolve(name + "-" + node + ".key"), dir.resolve(name + "-" + node + ".crt"));
      write(files.key(), new JcaPKCS8Generator(keys.getPrivate(), null));
      write(files.cert(), cert);
      return files;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A key and a certificate for {@code node}, signed by this CA, in one PKCS#12 file protected by {@code password}
   * (may be empty), as Keychain Access exports an APNs certificate with its private key.
   */
  public Path pkcs12(String node, String password) {
    try {
      KeyPair keys = keyPair();
      Certificate cert = new JcaX509CertificateConverter().getCertificate(sign(new X500Name("CN=" + node), keys,
          false));
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setKeyEntry(node, keys.getPrivate(), password.toCharArray(), new Certificate[] {cert});
      Path file = dir.resolve(name + "-" + node + ".p12");
      try (OutputStream out = Files.newOutputStream(file)) {
        store.store(out, password.toCharArray());
      }
      return file;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private X509CertificateHolder sign(X500Name subject, KeyPair keys, boolean ca)
      throws GeneralSecurityException, IOException {
    Instant now = Instant.now();
    JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(caSubject,
        BigInteger.valueOf(SERIAL.incrementAndGet()), Date.from(now.minus(Duration.ofHours(1))),
        Date.from(now.plus(Duration.ofDays(2))), subject, keys.getPublic());
    builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(ca));
    if (ca) {
      builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
    } else {
      builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
      builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(
          new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}));
    }
    try {
      return builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(caKeys.getPrivate()));
    } catch (org.bouncycastle.operator.OperatorCreationException e) {
      throw new GeneralSecurityException(e);
    }
  }

  private static KeyPair keyPair() throws GeneralSecurityException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    return generator.generateKeyPair();
  }

  private static void write(Path file, Object pem) throws IOException {
    try (Writer out = Files.newBufferedWriter(file); JcaPEMWriter writer = new JcaPEMWriter(out)) {
      if (pem instanceof PemObjectGenerator) {
        writer.writeObject((PemObjectGenerator) pem);
      } else {
        writer.writeObject(pem);
      }
    }
  }
}
