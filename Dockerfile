# Multi-stage build: compile and package with Maven, run the shaded jar on a JRE.
# Build: docker build -t kith .
# Run:   docker run -p 8080:8080 -v kith-data:/data kith
#        (embedded stores under /data, development only; set KITH_REDIS_URL and KITH_MONGO_URL for production)

FROM maven:3.9.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY pom.xml ./
COPY conf conf
COPY modules modules
RUN mvn -B -q -DskipTests -pl modules/app -am package

FROM eclipse-temurin:17-jre
RUN useradd --system --uid 10001 --home-dir /data kith \
    && mkdir -p /data /opt/kith/conf && chown kith /data
COPY --from=build /src/modules/app/target/kith.jar /opt/kith/kith.jar
COPY conf /opt/kith/conf
USER kith
WORKDIR /data
ENV KITH_DATA_DIR=/data \
    JAVA_OPTS="-XX:MaxRAMPercentage=75"
# HTTP API and SockJS bridge; Hazelcast (cluster mode). The TCP bridge (7000) is off unless enabled with
# KITH_BRIDGE_TCP_PORT=7000 KITH_BRIDGE_TCP_HOST=0.0.0.0, for trusted networks only.
EXPOSE 8080 5701
VOLUME ["/data"]
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/8080 && printf 'GET /health HTTP/1.0\\r\\n\\r\\n' >&3 && grep -q UP <&3"]
ENTRYPOINT ["sh", "-c", "exec java $JAVA_OPTS -jar /opt/kith/kith.jar \"$@\"", "kith"]
